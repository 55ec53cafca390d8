import { ErrorCode, ModelDeploymentErrorCode, ZRolloutInput } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import zh from '../locales/zh-TW.json';
import { canDeploy, deployBodyOf, deployRefusal, EMPTY_DEPLOY_FORM, type TDeployTarget } from './deployForm';

/** The value at dotted `key` of a locale file, or undefined. */
const lookup = (tree: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, k) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined), tree);

describe('deployBodyOf', () => {
  it('sends the chosen devices, not a project picked before switching', () => {
    const body = deployBodyOf({ target: 'devices', device_ids: [4, 9], project_id: 2 });
    expect(body).toEqual({ device_ids: [4, 9] });
    expect(ZRolloutInput.safeParse(body).success).toBe(true);
  });
  it('sends the project, not devices picked before switching', () => {
    const body = deployBodyOf({ target: 'project', device_ids: [4], project_id: 2 });
    expect(body).toEqual({ project_id: 2 });
    expect(ZRolloutInput.safeParse(body).success).toBe(true);
  });
});

describe('canDeploy', () => {
  it('needs a device or a project for the chosen target', () => {
    expect(canDeploy(undefined)).toBe(false);
    expect(canDeploy(EMPTY_DEPLOY_FORM)).toBe(false);
    expect(canDeploy({ target: 'devices', device_ids: [1] })).toBe(true);
    expect(canDeploy({ target: 'project', device_ids: [1] })).toBe(false);
    expect(canDeploy({ target: 'project', project_id: 3 })).toBe(true);
  });
});

describe('deployRefusal', () => {
  it('puts "no devices" and "too many" on the target field', () => {
    expect(deployRefusal({ status: 422, code: ModelDeploymentErrorCode.NoDevices }, 'project')).toEqual({
      key: 'aiModels.deploy.errors.noDevices.project',
      field: 'project_id',
    });
    expect(deployRefusal({ status: 400, code: ModelDeploymentErrorCode.TooManyDevices }, 'devices')).toEqual({
      key: 'aiModels.deploy.errors.tooManyDevices',
      field: 'device_ids',
    });
  });
  it('puts a 404 on the devices field when devices were named, in a dialog for a project', () => {
    expect(deployRefusal({ status: 404, code: ErrorCode.NotFound }, 'devices')?.field).toBe('device_ids');
    expect(deployRefusal({ status: 404, code: ErrorCode.NotFound }, 'project')).toEqual({ key: 'aiModels.deploy.errors.notFound' });
  });
  it('leaves other failures to the server message', () => {
    expect(deployRefusal({ status: 500, code: 'INTERNAL' }, 'devices')).toBeNull();
  });
  it('names keys both languages define', () => {
    const cases: [number, string][] = [
      [422, ModelDeploymentErrorCode.NoDevices],
      [400, ModelDeploymentErrorCode.TooManyDevices],
      [404, ErrorCode.NotFound],
    ];
    for (const target of ['devices', 'project'] as TDeployTarget[]) {
      for (const [status, code] of cases) {
        const key = deployRefusal({ status, code }, target)?.key ?? '';
        expect(typeof lookup(zh, key), `${key} in zh-TW`).toBe('string');
        expect(typeof lookup(en, key), `${key} in en`).toBe('string');
      }
    }
  });
});
