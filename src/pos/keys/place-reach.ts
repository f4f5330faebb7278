import type { Db } from '../../db/database.js';
import { findPlace, findPlaceCurrency, type PosPlace } from '../places/place-repository.js';

// Which places a merchant key reaches (docs/pos-api.md, Authentication: all places of the account,
// future ones too, or the places chosen).

/** What of a key decides its reach: its account and its places. */
export interface KeyReach {
  account_id: string;
  places: 'all' | readonly string[];
}

/** The place ids a key reaches: null for all places of its account (including future ones). */
export function keyPlaces(key: KeyReach): readonly string[] | null {
  return key.places === 'all' ? null : key.places;
}

/** Whether the key reaches the place id; a place removed from the key is the same as a wrong id. */
function reaches(key: KeyReach, placeId: string): boolean {
  const reach = keyPlaces(key);
  return reach === null || reach.includes(placeId);
}

/** The place if the key reaches it. */
export async function reachablePlace(db: Db, key: KeyReach, placeId: string): Promise<PosPlace | undefined> {
  return reaches(key, placeId) ? findPlace(db, key.account_id, placeId) : undefined;
}

/** The currency of the place's figures (its account's) if the key reaches the place: one look-up for both. */
export async function reachablePlaceCurrency(
  db: Db,
  key: KeyReach,
  placeId: string,
): Promise<string | undefined> {
  return reaches(key, placeId) ? findPlaceCurrency(db, key.account_id, placeId) : undefined;
}
