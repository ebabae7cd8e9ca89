// Prints one closing line over the vitest JSON reports (both stacks and the chaos suite): "N passed, N failed, N skipped", after the name of every failed test.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.log(`${file}: no report (the run crashed)`);
    failed += 1;
    continue;
  }
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`);
  const onGateway = report.testResults.flatMap((f) => f.assertionResults).filter((t) => t.fullName.includes('RADOS Gateway'));
  if (onGateway.length > 0) console.log(`  of which the blob contract on the RADOS Gateway: ${onGateway.filter((t) => t.status === 'passed').length} passed, ${onGateway.filter((t) => t.status === 'failed').length} failed`);
  // The failing tests by name with the first line of their message, so a red run says what to look at without its whole log.
  for (const fileResult of report.testResults) {
    for (const test of fileResult.assertionResults.filter((t) => t.status === 'failed')) {
      const firstLine = (test.failureMessages[0] ?? '').split('\n')[0].slice(0, 300);
      console.log(`  FAILED ${fileResult.name.replace(process.cwd() + '/', '')} > ${test.fullName}: ${firstLine}`);
    }
    if (fileResult.status === 'failed' && fileResult.assertionResults.every((t) => t.status !== 'failed')) {
      console.log(`  FAILED ${fileResult.name.replace(process.cwd() + '/', '')}: ${(fileResult.message ?? '').split('\n')[0].slice(0, 300)}`);
    }
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numFailedTestSuites ?? 0);
  skipped += report.numPendingTests + report.numTodoTests;
}
if (passed === 0) failed += 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
