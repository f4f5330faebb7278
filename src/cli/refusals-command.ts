import { Command } from 'commander';
import { seg } from './admin-client.js';
import { usageError } from './cli-error.js';
import { action, positiveNumber } from './context.js';
import { ADMIN_API } from '../lib/api-registry.js';

// `refusals`: "why did my call fail" (docs/operations.md, Why did my call fail): the last refused calls of a partner
// system or a merchant account, newest first, with the request id the caller saw in `X-Request-Id`.

type Refusal = Record<string, unknown>;

/** The `refusals` command. */
export function refusalsCommand(): Command {
  return new Command('refusals')
    .description('Lists the last refused calls of a partner system or a merchant account, newest first.')
    .option('--system <identifier>', 'a partner system (the ticket API)')
    .option('--account <account>', 'a merchant account (the point-of-sale API, all of its keys)')
    .option('--limit <n>', 'how many, 1 to 100 (default: all that are kept, the last 100)', positiveNumber)
    .addHelpText(
      'after',
      `
Each line: when, the request id (X-Request-Id of the answer), the operation,
the status and the problem's code, the key it came with, the parameter the
answer named (param) and its detail (cut at 60 characters; --json has it
whole). Below the table, where each code is explained on the documentation
pages (/docs/problems#problem-<code>).

Examples:
  $ partner-gateway refusals --system demo
  $ partner-gateway refusals --account acme --limit 5 --json`,
    )
    .action(
      action(async ({ out, admin }, options: { system?: string; account?: string; limit?: number }) => {
        if ((options.system === undefined) === (options.account === undefined)) {
          throw usageError('give one of --system or --account');
        }
        const path =
          options.system !== undefined
            ? `${ADMIN_API.prefix}helpdesk/systems/${seg(options.system)}/refusals`
            : `${ADMIN_API.prefix}pos/accounts/${seg(options.account ?? '')}/refusals`;
        const page = await admin().call<{ data: Refusal[] }>('GET', path, {
          query: { limit: options.limit },
        });
        out.result(page, () => {
          out.table(page.data, [
            'at',
            'request_id',
            'operation',
            'status',
            'code',
            'credential',
            'param',
            'detail',
          ]);
          const explained = new Map(
            page.data.flatMap((refusal) =>
              typeof refusal.code === 'string' && typeof refusal.doc_url === 'string'
                ? [[refusal.code, refusal.doc_url] as const]
                : [],
            ),
          );
          if (explained.size === 0) return;
          out.line();
          out.line(out.out.bold('What the codes mean:'));
          const width = Math.max(...[...explained.keys()].map((code) => code.length));
          for (const [code, url] of explained) out.line(`  ${code.padEnd(width)}  ${url}`);
        });
      }),
    );
}
