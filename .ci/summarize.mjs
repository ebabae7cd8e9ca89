// Prints one closing line over the vitest JSON reports (both stacks and the chaos suite): "N passed, N failed, N skipped".
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
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numFailedTestSuites ?? 0);
  skipped += report.numPendingTests + report.numTodoTests;
}
if (passed === 0) failed += 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
