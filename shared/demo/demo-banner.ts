import type { DemoInfo } from './seed-demo.js';

/** The lines `npm start` prints about the demo organization: tokens and a query to try. */
export function demoBanner(demo: DemoInfo, baseUrl: string): string[] {
  const body = JSON.stringify({ query: demo.query.replace(/\s+/g, ' ') });
  return [
    demo.created ? 'Demo organization created (slug "demo"):' : 'Demo organization (slug "demo"):',
    `  delivery token: ${demo.deliveryToken}`,
    `  preview token:  ${demo.previewToken}`,
    `  manage token:   ${demo.manageToken}`,
    `  distribution:   ${demo.distributionId}`,
    '  try:',
    `  curl -s ${baseUrl}/graphql -H 'authorization: Bearer ${demo.deliveryToken}' -H 'content-type: application/json' \\`,
    `    -d '${body}'`,
  ];
}
