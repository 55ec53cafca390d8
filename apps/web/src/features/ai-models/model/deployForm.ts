/**
 * The deploy form's model (contracts model-deployments.ts): devices by id or a whole project become the body of
 * POST …/revisions/{rev}/rollouts, and the server's refusals become a translated message on the field they concern.
 * Pure, so it is unit-tested.
 */
import { ErrorCode, ModelDeploymentErrorCode, type TRolloutInput } from '@tessera/contracts';

/** Where a revision goes: chosen devices, or every device a project has now. */
export type TDeployTarget = 'devices' | 'project';

/** The deploy form's values; only the field of the chosen target is sent. */
export interface TDeployForm {
  target: TDeployTarget;
  device_ids?: number[];
  project_id?: number;
}

/** A new form: devices, none chosen. */
export const EMPTY_DEPLOY_FORM: TDeployForm = { target: 'devices', device_ids: [] };

/** The body of the POST from the form: the devices, or the project (the other field is left out). */
export function deployBodyOf(form: TDeployForm): TRolloutInput {
  return form.target === 'project' ? { project_id: form.project_id } : { device_ids: form.device_ids ?? [] };
}

/** True when the form names something to deploy to. */
export function canDeploy(form: TDeployForm | undefined): boolean {
  if (!form) return false;
  return form.target === 'project' ? form.project_id !== undefined : (form.device_ids?.length ?? 0) > 0;
}

/** A refusal said in the reader's language: the i18n key, and the form field it belongs on (none: a dialog). */
export interface TDeployRefusal {
  key: string;
  field?: 'device_ids' | 'project_id';
}

/**
 * The message of a failed POST: no devices (the project has none) and too many devices land on the target's field;
 * a 404 (devices not the tenant's, or the revision gone) on the devices field when devices were named; anything
 * else is null (the caller shows the server's message).
 */
export function deployRefusal(err: { status: number; code: string }, target: TDeployTarget): TDeployRefusal | null {
  const field = target === 'project' ? 'project_id' : 'device_ids';
  if (err.code === ModelDeploymentErrorCode.NoDevices) return { key: `aiModels.deploy.errors.noDevices.${target}`, field };
  if (err.code === ModelDeploymentErrorCode.TooManyDevices) return { key: 'aiModels.deploy.errors.tooManyDevices', field };
  if (err.status === 404 || err.code === ErrorCode.NotFound) {
    return target === 'devices' ? { key: 'aiModels.deploy.errors.notFound', field } : { key: 'aiModels.deploy.errors.notFound' };
  }
  return null;
}
