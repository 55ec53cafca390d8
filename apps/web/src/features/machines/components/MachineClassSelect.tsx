/**
 * The machine class of a machine (ISO 10816-3, contracts machine-class.ts): a select of the four classes, each with
 * one line saying what it means (machine size by rated power, foundation rigid or flexible).
 */
import { MACHINE_CLASSES, type TMachineClass } from '@tessera/contracts';
import { Flex, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A controlled antd form field. */
export function MachineClassSelect({ value, onChange }: { value?: TMachineClass; onChange?: (v: TMachineClass) => void }) {
  const { t } = useTranslation();
  return (
    <Select<TMachineClass>
      value={value}
      onChange={onChange}
      optionLabelProp="title"
      data-testid="machine-class"
      options={MACHINE_CLASSES.map((c) => ({
        value: c,
        title: t(`machines.class.${c}.label`),
        label: (
          <Flex vertical data-testid={`machine-class-${c}`}>
            <span>{t(`machines.class.${c}.label`)}</span>
            <Typography.Text type="secondary" style={{ whiteSpace: 'normal', fontSize: 12 }}>
              {t(`machines.class.${c}.hint`)}
            </Typography.Text>
          </Flex>
        ),
      }))}
    />
  );
}

/** The class's label and hint, for pages that show it. */
export function useMachineClassText() {
  const { t } = useTranslation();
  return (c: TMachineClass) => ({ label: t(`machines.class.${c}.label`), hint: t(`machines.class.${c}.hint`) });
}
