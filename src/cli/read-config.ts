import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { CliError, EXIT } from './cli-error.js';

// The server's configuration as the local commands read it: the environment, and a `.env` file in the
// working directory.

/** The configuration of the environment; a bad one is a usage error naming the variables. */
export function readConfig(env: NodeJS.ProcessEnv): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError)
      throw new CliError(`Invalid configuration: ${error.message}`, EXIT.usage);
    throw error;
  }
}
