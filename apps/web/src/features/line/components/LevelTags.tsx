/** Alert levels as coloured tags (the colours of the rule tab). */
import type { TAlertLevel } from '@tessera/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TAlertLevel, string> = { remind: 'blue', early_warning: 'orange', alert: 'red' };

/** One tag per level. */
export function LevelTags({ levels }: { levels: readonly TAlertLevel[] }) {
  const { t } = useTranslation();
  return (
    <>
      {levels.map((l) => (
        <Tag key={l} color={COLORS[l]}>
          {t(`line.levels.${l}`)}
        </Tag>
      ))}
    </>
  );
}
