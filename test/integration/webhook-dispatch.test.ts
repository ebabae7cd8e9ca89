import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../../shared/events/record-events.js';
import type { AttemptRecord, DeliveryToSend } from '../../shared/webhooks/delivery-repository.js';
import { claimDeliveries, finishAttempts, insertDeliveries } from '../../shared/webhooks/delivery-repository.js';
import { dispatchPendingEvents } from '../../shared/webhooks/dispatch.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The dispatcher under concurrency and bursts, on the stack's own database (a database of its
 * own on Postgres, so that the table statistics it checks are this suite's alone).
 */
describe('webhook dispatch', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp({ ownDatabase: true, env: { WEBHOOK_DISPATCH: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  async function orgWithWebhook(path: string) {
    const org = await t.createOrg();
    const created = await t.json('/management/v1/webhooks', { token: org.manageToken, method: 'POST', body: { url: `${receiver.url}${path}`, events: ['*'] } });
    expect(created.status).toBe(201);
    return { org, webhookId: created.body.result.id as string };
  }

  it('dispatchers running at once turn each event into one delivery, in the order of the events of each subject', async () => {
    const { org, webhookId } = await orgWithWebhook('/racing');
    const events = Array.from({ length: 400 }, (_, i) => ({ type: 'label.changed' as const, subject: `label:lane-${i % 4}`, data: { id: `l${i}`, action: 'updated' } }));
    await t.services.db.transaction((tx) => recordEvents(tx, org.orgId, events));
    // the app's own dispatcher is woken by the commit; two more run beside it
    await Promise.all([dispatchPendingEvents(t.services), dispatchPendingEvents(t.services)]);
    await expect.poll(async () => (await t.services.db.query('SELECT 1 FROM events WHERE org_id = $1 AND dispatched_at IS NULL', [org.orgId])).rows.length).toBe(0);
    const { rows } = await t.services.db.query<{ lane: string; event_id: number; seq: number }>(
      'SELECT lane, event_id, seq FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 ORDER BY seq',
      [org.orgId, webhookId],
    );
    expect(rows).toHaveLength(400);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(400);
    for (let lane = 0; lane < 4; lane++) {
      const ids = rows.filter((r) => r.lane === `label:lane-${lane}`).map((r) => r.event_id);
      expect(ids).toHaveLength(100);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
  });

  it('a delivery added to a lane while its head is recorded is handed on by that record, not lost', async () => {
    const { org, webhookId } = await orgWithWebhook('/handed-on');
    const db = t.services.db;
    await db.query(
      `INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, lane, body) VALUES ($1, 'msg_head', $2, 0, 'label.changed', 'label:handed', '{}')`,
      [org.orgId, webhookId],
    );
    const [head] = await claimDeliveries(db, [{ orgId: org.orgId, id: 'msg_head' }], 30_000);
    expect(head).not.toBeNull();
    const success: AttemptRecord = { statusCode: 204, durationMs: 1, error: null, excerpt: null, outcome: { status: 'succeeded' }, counted: true };

    let recorded: Promise<unknown> | undefined;
    let recordedEarly = false;
    let committed = false;
    await db.transaction(async (tx) => {
      // the dispatcher's INSERT: the head is still pending, so the new delivery is no head
      const heads = await insertDeliveries(tx, [{ orgId: org.orgId, id: 'msg_next', webhookId, eventId: 0, eventType: 'label.changed', lane: 'label:handed', body: '{}' }]);
      expect(heads).toEqual([]);
      // the head's record meanwhile: it must wait for this transaction to end
      recorded = finishAttempts(db, [{ d: head as DeliveryToSend, a: success }]).then((next) => {
        recordedEarly = !committed;
        return next;
      });
      await new Promise((r) => setTimeout(r, 300));
      committed = true;
    });
    expect(recordedEarly).toBe(false);
    // …and, once it may go on, it sees the delivery the dispatcher added and hands it on
    expect(await recorded).toEqual([{ orgId: org.orgId, id: 'msg_next', attempts: 0 }]);
  });

  it('a burst of deliveries has the table statistics renewed, so the planner knows the pending ones', async () => {
    const { org } = await orgWithWebhook('/burst');
    const counted = async () =>
      (await t.services.db.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'webhook_deliveries'::regclass`)).rows[0].n;
    const before = await counted();
    expect(before).toBeLessThan(600); // never analyzed (-1), or a few rows of the tests before
    // the app's dispatchers (woken by the commit, and the tick) take them, at most two runs at
    // once: one of them adds at least 600, past the 500 that have the statistics renewed
    const events = Array.from({ length: 1200 }, (_, i) => ({ type: 'label.changed' as const, subject: `label:burst-${i}`, data: { id: `b${i}`, action: 'updated' } }));
    await t.services.db.transaction((tx) => recordEvents(tx, org.orgId, events));
    await expect.poll(counted, { timeout: 15_000 }).toBeGreaterThanOrEqual(600);
  });
});
