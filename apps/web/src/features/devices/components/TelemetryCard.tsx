/**
 * One sensor's latest value on telemetry-status: name, value(s) with unit (a string, boolean or JSON value of a
 * non-numeric key as text), local time of the point, and a short
 * highlight whenever a newer point arrives (live). `data-testid="telemetry-value-<key>"` is on the value text.
 */
import { Card, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocalTime, formatTelemetryValue, formatValues } from '../model/format';
import type { TTelemetryCard } from '../model/twin';

const FLASH_MS = 1_200;

/** The card of one key. */
export function TelemetryCard({ card }: { card: TTelemetryCard }) {
  const { t, i18n } = useTranslation();
  const ts = card.latest?.ts;
  const [flash, setFlash] = useState(false);
  const seen = useRef(ts);
  useEffect(() => {
    if (ts === seen.current) return;
    seen.current = ts;
    setFlash(true);
    const timer = setTimeout(() => setFlash(false), FLASH_MS);
    return () => clearTimeout(timer);
  }, [ts]);

  const latest = card.latest;
  let shown = t('devices.telemetry.noValue');
  if (latest?.value !== undefined)
    shown = formatTelemetryValue(latest.value, { true: t('devices.telemetry.true'), false: t('devices.telemetry.false') });
  else if (latest) shown = formatValues(latest.vs, i18n.language);

  return (
    <Card
      size="small"
      title={card.name}
      extra={<Typography.Text type="secondary">{card.key}</Typography.Text>}
      data-testid={`telemetry-card-${card.key}`}
      data-flash={flash}
      style={{ transition: 'background-color 0.6s', backgroundColor: flash ? 'rgba(22, 119, 255, 0.12)' : undefined }}
    >
      <Typography.Text
        strong
        style={{ fontSize: (latest?.vs.length ?? 1) > 1 || latest?.value !== undefined ? 18 : 24, overflowWrap: 'anywhere' }}
        data-testid={`telemetry-value-${card.key}`}
      >
        {shown}
      </Typography.Text>
      {card.unit && <Typography.Text style={{ marginInlineStart: 6 }}>{card.unit}</Typography.Text>}
      <div>
        <Typography.Text type="secondary" data-testid={`telemetry-time-${card.key}`}>
          {formatLocalTime(card.latest?.ts)}
        </Typography.Text>
      </div>
    </Card>
  );
}
