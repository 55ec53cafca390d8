/**
 * The System tab's retention form (docs/decisions/telemetry-storage.md "Retention"): how long raw points, 1-minute
 * and 1-hour rollups are kept — for ever (the default) or 7 days to 10 years — saved with PUT projects/{id}/retention.
 */
import type { TRetention } from '@tessera/contracts';
import { App, Button, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRetention, useSaveRetention } from './api';

/** The choices offered, in days; `forever` is null in the API. */
const CHOICES = ['forever', 7, 30, 90, 180, 365, 730, 1825, 3650] as const;
type TChoice = (typeof CHOICES)[number];
type TValues = Record<keyof TRetention, TChoice>;
const FIELDS: (keyof TRetention)[] = ['raw_days', 'rollup_1m_days', 'rollup_1h_days'];

const toChoice = (days: number | null): TChoice => (days === null ? 'forever' : ((CHOICES.find((c) => c === days) ?? days) as TChoice));
const toDays = (c: TChoice): number | null => (c === 'forever' ? null : c);

/** The retention of project `projectId`. */
export function RetentionCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const retention = useRetention(projectId).data;
  const save = useSaveRetention(projectId);
  if (!retention) return null;
  const initial = Object.fromEntries(FIELDS.map((f) => [f, toChoice(retention[f])])) as TValues;
  const label = (c: TChoice) =>
    c === 'forever' ? t('telemetryStore.retention.forever') : t('telemetryStore.retention.days', { count: c });
  const submit = (v: TValues) =>
    save.mutate(Object.fromEntries(FIELDS.map((f) => [f, toDays(v[f])])) as TRetention, {
      onSuccess: () => void message.success(t('common.saved')),
      onError: () => void message.error(t('errors.saveFailed')),
    });
  return (
    <Form layout="vertical" initialValues={initial} onFinish={submit} style={{ maxWidth: 480 }} key={JSON.stringify(retention)}>
      {FIELDS.map((f) => (
        <Form.Item key={f} name={f} label={t(`telemetryStore.retention.${f}`)}>
          <Select data-testid={`retention-${f}`} options={CHOICES.map((c) => ({ value: c, label: label(c) }))} />
        </Form.Item>
      ))}
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="retention-save">
        {t('common.save')}
      </Button>
    </Form>
  );
}
