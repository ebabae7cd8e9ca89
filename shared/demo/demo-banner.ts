import { DEMO_MEMBER_EMAIL } from './demo-member.js';
import type { DemoInfo } from './seed-demo.js';

/** The lines `npm start` prints about the demo organization: tokens, ids, and a content query and an analytics call to try. */
export function demoBanner(demo: DemoInfo, baseUrl: string): string[] {
  const body = JSON.stringify({ query: demo.query.replace(/\s+/g, ' ') });
  return [
    demo.created ? 'Demo organization created (slug "demo"):' : 'Demo organization (slug "demo"):',
    `  delivery token: ${demo.deliveryToken}`,
    `  preview token:  ${demo.previewToken}`,
    `  manage token:   ${demo.manageToken}`,
    `  analytics:      ${demo.analyticsToken}`,
    `  project:        ${demo.projectId}`,
    `  distribution:   ${demo.distributionId}`,
    '  try content:',
    `  curl -s ${baseUrl}/graphql -H 'authorization: Bearer ${demo.deliveryToken}' -H 'content-type: application/json' \\`,
    `    -d '${body}'`,
    '  try traffic analytics (the last 24 hours of sample traffic):',
    `  curl -s ${baseUrl}/api/v1/projects/${demo.projectId}/distributions/${demo.distributionId}/analytics -H 'authorization: Bearer ${demo.analyticsToken}'`,
    ...(demo.ownerInvitation
      ? [
          '  write and publish in the Studio: open this link once, choose a password, then sign in as ' + DEMO_MEMBER_EMAIL,
          `  ${baseUrl}/studio/accept#token=${demo.ownerInvitation}`,
        ]
      : [`  Studio: ${baseUrl}/studio`]),
  ];
}
