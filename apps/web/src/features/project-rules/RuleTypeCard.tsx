/**
 * The project's rule type (spec §4 "level trigger or edge trigger, changed by the ruleType call"): a switch with one
 * line on what each means, and the level trigger's re-notify interval (docs/rules.md "Level and edge"), entered in
 * minutes and stored in seconds. Each change is saved at once with PUT projects/{id}/ruleType.
 */
import { RULE_RENOTIFY_MAX_S, RULE_RENOTIFY_MIN_S, RULE_TYPES, type TProject, type TRuleTypeUpdate } from '@tessera/contracts';
import { App, Card, Flex, InputNumber, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetRuleType } from './api';

const S_PER_MIN = 60;

/** The rule-type card of `project`. */
export function RuleTypeCard({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const setType = useSetRuleType(project.id);
  const [intervalMin, setIntervalMin] = useState<number | null>(project.renotify_interval_s / S_PER_MIN);
  const save = (body: TRuleTypeUpdate) =>
    setType.mutate(body, {
      onSuccess: () => void message.success(t('common.saved')),
      onError: (err) => void message.error(`${t('errors.saveFailed')}: ${err.message}`),
    });
  const saveInterval = () => {
    if (intervalMin === null) return setIntervalMin(project.renotify_interval_s / S_PER_MIN);
    const seconds = Math.round(intervalMin * S_PER_MIN);
    if (seconds !== project.renotify_interval_s) save({ rule_type: project.rule_type, renotify_interval_s: seconds });
  };
  return (
    <Card size="small" title={t('projectRules.type.title')}>
      <Radio.Group
        value={project.rule_type}
        disabled={setType.isPending}
        onChange={(e) => save({ rule_type: e.target.value })}
        data-testid="rule-type"
      >
        {RULE_TYPES.map((type) => (
          <Radio key={type} value={type} data-testid={`rule-type-${type}`} style={{ display: 'flex', marginBottom: 8 }}>
            <Typography.Text strong>{t(`projectRules.type.${type}`)}</Typography.Text>
            <Typography.Text type="secondary"> — {t(`projectRules.type.${type}Help`)}</Typography.Text>
          </Radio>
        ))}
      </Radio.Group>
      <Flex align="center" gap={8} wrap>
        <Typography.Text>{t('projectRules.type.renotify')}</Typography.Text>
        <InputNumber
          min={RULE_RENOTIFY_MIN_S / S_PER_MIN}
          max={RULE_RENOTIFY_MAX_S / S_PER_MIN}
          precision={1}
          value={intervalMin}
          onChange={setIntervalMin}
          onBlur={saveInterval}
          onPressEnter={saveInterval}
          disabled={project.rule_type !== 'level' || setType.isPending}
          addonAfter={t('projectRules.type.minutes')}
          aria-label={t('projectRules.type.renotify')}
          data-testid="rule-renotify"
        />
        <Typography.Text type="secondary">
          {t('projectRules.type.renotifyHelp', { min: RULE_RENOTIFY_MIN_S / S_PER_MIN, max: RULE_RENOTIFY_MAX_S / S_PER_MIN })}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
