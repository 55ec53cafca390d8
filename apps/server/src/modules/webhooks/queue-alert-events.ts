/**
 * Queues alert events for the projects' webhooks (docs/decisions/webhooks.md): `alert.opened` for every alert seen,
 * `alert.cleared` once it is resolved, to each enabled webhook of its project that subscribes to the event. One
 * INSERT … SELECT builds the JSON bodies in the database; the unique (webhook, alert, event) index makes it idempotent,
 * so the live path (after each alert change) and the catch-up sweep (after a crash between an alert's commit and its
 * live publish) never deliver an event twice.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';

function insertEvents(db: Db, alertFilter: SQL): Promise<number> {
  return db
    .execute(sql`
      insert into webhook_outbox (webhook_id, event, alert_id, payload)
      select w.id, e.event, a.id, json_build_object(
        'event', e.event,
        'occurred_at', case when e.event = 'alert.opened' then a.first_seen_at else a.resolved_at end,
        'project', json_build_object('id', p.id, 'name', p.name),
        'device', json_build_object('tangram_id', d.tangram_id, 'name', d.name),
        'alert', json_build_object(
          'id', a.id, 'level', a.level, 'rule_name', a.rule_name, 'message', a.message, 'state', a.state,
          'first_seen_at', a.first_seen_at, 'resolved_at', a.resolved_at,
          'trigger', case when a.trigger_key is null then null
                          else json_build_object('key', a.trigger_key, 'value', a.trigger_value) end)
      )::text
      from alerts a
      join project_webhooks w on w.project_id = a.project_id and w.enabled
      join projects p on p.id = a.project_id
      join devices d on d.id = a.device_id
      cross join (values ('alert.opened'), ('alert.cleared')) as e(event)
      where ${alertFilter} and e.event = any(w.events) and (e.event = 'alert.opened' or a.state = 'resolved')
      on conflict (webhook_id, alert_id, event) where alert_id is not null do nothing
      returning id`)
    .then((result) => rowsOf(result).length);
}

/** Queues the events of the alerts `alertIds` (just changed); answers how many deliveries were queued. */
export function queueAlertWebhooks(db: Db, alertIds: readonly number[]): Promise<number> {
  if (alertIds.length === 0) return Promise.resolve(0);
  return insertEvents(
    db,
    sql`a.id in (${sql.join(
      alertIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
}

/**
 * Queues the events of alerts opened or resolved since `sinceMs` (epoch ms) in projects that have a webhook: the
 * catch-up for changes whose live publish was lost. Answers how many deliveries were queued.
 */
export function sweepAlertWebhooks(db: Db, sinceMs: number): Promise<number> {
  return insertEvents(
    db,
    sql`a.project_id in (select project_id from project_webhooks where enabled)
        and (a.first_seen_at >= ${sinceMs} or a.resolved_at >= ${sinceMs})`,
  );
}
