import { run } from './program.js';

// The `partner-gateway` command line: bin/partner-gateway.js runs this file from dist/.

// A reader that stops early (`partner-gateway --help | head`) closes the pipe: that ends the command
// quietly, as other command-line tools do, instead of a stack trace about EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await run(process.argv);
