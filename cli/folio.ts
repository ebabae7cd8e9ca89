import { parseArgs } from 'node:util';
import { runCreateOrganizationCommand } from './create-organization-command.js';
import { runExportCommand } from './export-command.js';
import { runImportCommand } from './import-command.js';

const USAGE = `Usage: npm run folio -- import FILE --token TOKEN [--url http://localhost:3000] [--no-progress]
       npm run folio -- export FILE --token TOKEN [--url http://localhost:3000] [--no-progress]
       npm run folio -- create-organization --name NAME --slug SLUG
       npm run folio -- help

  import   Streams an NDJSON file (gzip-compressed when its name ends in .gz) to
           POST /management/v1/import (one {"type": ..., ...} per line) and prints the per-line
           report.
  export   Writes the organization's content to FILE as the NDJSON the import takes (gzip-
           compressed when its name ends in .gz), from GET /management/v1/export.
  create-organization
           Creates an organization and prints its first manage token, straight in the
           database DATABASE_URL names: a production deployment's first run (run it where the
           API runs, e.g. \`node dist/cli/folio.js create-organization …\` in its container).
  TOKEN needs the "manage" scope. FOLIO_TOKEN and FOLIO_URL may be used instead of --token and --url.`;

/** The `folio` command line. Exit code: 0 all lines applied, 1 some failed or the call failed, 2 usage. */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      token: { type: 'string' },
      url: { type: 'string' },
      'no-progress': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      name: { type: 'string' },
      slug: { type: 'string' },
    },
  });
  const [command, file] = positionals;
  const token = values.token ?? process.env.FOLIO_TOKEN;
  if (values.help || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (command === 'create-organization') return runCreateOrganizationCommand(values, process.stdout, process.stderr);
  if ((command !== 'import' && command !== 'export') || !file || !token) {
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  const options = { file, token, url: values.url ?? process.env.FOLIO_URL ?? 'http://localhost:3000', progress: !values['no-progress'] };
  if (command === 'export') return (await runExportCommand(options)).status === 200 ? 0 : 1;
  const result = await runImportCommand(options);
  return result.status === 200 && result.failed === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`folio: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
