/**
 * The project's rule type (spec §4 "level trigger or edge trigger, changed by the ruleType call"): a switch with one
 * line on what each means. Saved at once with PUT projects/{id}/ruleType.
 */
import { RULE_TYPES, type TProject } from '@tessera/contracts';
import { App, Card, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSetRuleType } from './api';

/** The rule-type card of `project`. */
export function RuleTypeCard({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const setType = useSetRuleType(project.id);
  return (
    <Card size="small" title={t('rules.type.title')}>
      <Radio.Group
        value={project.rule_type}
        disabled={setType.isPending}
        onChange={(e) =>
          setType.mutate(
            { rule_type: e.target.value },
            {
              onSuccess: () => void message.success(t('common.saved')),
              onError: (err) => void message.error(`${t('errors.saveFailed')}: ${err.message}`),
            },
          )
        }
        data-testid="rule-type"
      >
        {RULE_TYPES.map((type) => (
          <Radio key={type} value={type} data-testid={`rule-type-${type}`} style={{ display: 'flex', marginBottom: 8 }}>
            <Typography.Text strong>{t(`rules.type.${type}`)}</Typography.Text>
            <Typography.Text type="secondary"> — {t(`rules.type.${type}Help`)}</Typography.Text>
          </Radio>
        ))}
      </Radio.Group>
    </Card>
  );
}
