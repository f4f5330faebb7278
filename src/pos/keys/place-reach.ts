import type { Db } from '../../db/database.js';
import { findPlace, type PosPlace } from '../places/place-repository.js';

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

/** The place if the key reaches it; a place removed from the key is the same as a wrong id. */
export async function reachablePlace(db: Db, key: KeyReach, placeId: string): Promise<PosPlace | undefined> {
  const reach = keyPlaces(key);
  if (reach !== null && !reach.includes(placeId)) return undefined;
  return findPlace(db, key.account_id, placeId);
}
