/**
 * The retained `devices/{id}/model` message (docs/protocol.md "AI models", ZDeviceModelMessage): what a device is to
 * fetch — the revision's absolute URL on this server, its size and SHA-256, and where to get the token for it.
 */
import { modelDeploymentPaths, topics, type TDeviceModelMessage } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';

/** What a device is told of one deployment. */
export interface TModelDelivery {
  deploymentId: number;
  attempt: number;
  tangramId: string;
  modelId: number;
  modelName: string;
  framework: string;
  revision: number;
  fileName: string;
  sizeBytes: number;
  sha256: string;
}

/** The message of `delivery`, its URLs under `baseUrl` (PUBLIC_URL, else the console's origin; no trailing slash). */
export function modelMessage(delivery: TModelDelivery, baseUrl: string): TDeviceModelMessage {
  return {
    deploymentId: delivery.deploymentId,
    attempt: delivery.attempt,
    modelId: delivery.modelId,
    modelName: delivery.modelName,
    framework: delivery.framework,
    revision: delivery.revision,
    fileName: delivery.fileName,
    sizeBytes: delivery.sizeBytes,
    sha256: delivery.sha256,
    url: `${baseUrl}${modelDeploymentPaths.deviceModelFile(delivery.deploymentId)}`,
    tokenUrl: `${baseUrl}${modelDeploymentPaths.deviceToken}`,
  };
}

/**
 * Publishes each delivery retained at QoS 1 on its device's model topic. A publish that fails is logged and leaves the
 * device `pending` (the rollout's retry sends it again); answers how many were published.
 */
export async function publishDeliveries(bus: TMessageBus, log: Logger, deliveries: TModelDelivery[], baseUrl: string): Promise<number> {
  const sent = await Promise.all(
    deliveries.map((d) =>
      bus.publish(topics.model(d.tangramId), JSON.stringify(modelMessage(d, baseUrl)), { qos: 1, retain: true }).then(
        () => true,
        (err: unknown) => {
          log.warn({ err, deploymentId: d.deploymentId }, 'model deployment not published; retry the rollout');
          return false;
        },
      ),
    ),
  );
  return sent.filter(Boolean).length;
}

/** Clears the retained model of each device (an empty retained payload: no model). Failures are logged. */
export async function clearModels(bus: TMessageBus, log: Logger, tangramIds: string[]): Promise<void> {
  await Promise.all(
    tangramIds.map((id) =>
      bus
        .publish(topics.model(id), '', { qos: 1, retain: true })
        .catch((err: unknown) => log.warn({ err, tangramId: id }, 'retained model not cleared')),
    ),
  );
}
