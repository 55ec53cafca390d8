/**
 * Picks the devices to deploy to: the shared device picker by device id (the rollout's body names devices by id), at
 * most MAX_ROLLOUT_DEVICES.
 */
import { MAX_ROLLOUT_DEVICES } from '@tessera/contracts';
import { useTranslation } from 'react-i18next';
import { DevicePicker } from '../../devices/components/DevicePicker';

interface TProps {
  value?: number[];
  onChange?: (deviceIds: number[]) => void;
  id?: string;
}

/** The select (a controlled antd form field; `id` is the form item's, for its label). */
export function DeployDeviceSelect({ value, onChange, id }: TProps) {
  const { t } = useTranslation();
  return (
    <DevicePicker
      valueKey="id"
      id={id}
      value={value}
      onChange={onChange}
      max={MAX_ROLLOUT_DEVICES}
      testId="deploy-devices"
      placeholder={t('aiModels.deploy.devicesPlaceholder')}
    />
  );
}
