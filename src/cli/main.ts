import { exitUnlessNodeSupported, nativeAddonFailure } from '../runtime-check.js';

// The `partner-gateway` command line: bin/partner-gateway.js runs this file from dist/. The Node version
// is checked before the commands (and the native addons they load) are imported.

exitUnlessNodeSupported('error');

// A reader that stops early (`partner-gateway --help | head`) closes the pipe: that ends the command
// quietly, as other command-line tools do, instead of a stack trace about EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

try {
  const { run } = await import('./program.js');
  process.exitCode = await run(process.argv);
} catch (error) {
  const problem = nativeAddonFailure(error);
  if (problem === null) throw error;
  process.stderr.write(`error: ${problem}\n`);
  process.exitCode = 1;
}
