/**
 * Devices behind a gateway (ThingsBoard's gateway API, docs/protocol.md "ThingsBoard gateway API",
 * docs/decisions/device-apis.md "Gateway"): a device marked as a gateway publishes for devices it names on
 * `v1/gateway/…` with its own access token; the platform matches each name to a device of the gateway's project.
 */
import { z } from 'zod';

/** The topics a gateway publishes on (gateway → server). */
export const GATEWAY_TOPICS = {
  connect: 'v1/gateway/connect',
  disconnect: 'v1/gateway/disconnect',
  telemetry: 'v1/gateway/telemetry',
  attributes: 'v1/gateway/attributes',
  attributeRequest: 'v1/gateway/attributes/request',
  attributeResponse: 'v1/gateway/attributes/response',
  rpc: 'v1/gateway/rpc',
  /** ThingsBoard's device claiming: refused (docs/decisions/device-apis.md "Claiming"). */
  claim: 'v1/gateway/claim',
} as const;

/** The longest device name a gateway may send (the console's device name limit). */
export const GATEWAY_DEVICE_NAME_MAX = 128;
/** The most devices one gateway message may name. */
export const GATEWAY_DEVICES_PER_MESSAGE_MAX = 1000;

/** PUT `/frontstage/v1/devices/{tangramId}/gateway`: mark a device as a gateway, or not. Answers the same shape. */
export const ZDeviceGatewayFlag = z.object({ is_gateway: z.boolean() });
export type TDeviceGatewayFlag = z.infer<typeof ZDeviceGatewayFlag>;
/** The answer of that PUT: the device and its flag now. */
export const ZDeviceGatewayState = ZDeviceGatewayFlag.extend({ tangram_id: z.string() });
export type TDeviceGatewayState = z.infer<typeof ZDeviceGatewayState>;

/** One device seen behind a gateway. `connected`: the gateway says it is connected now (on this or another replica). */
export const ZGatewayChild = z.object({
  tangram_id: z.string(),
  name: z.string(),
  online: z.boolean(),
  connected: z.boolean(),
  last_seen_at: z.number().int().nullable(),
});
export type TGatewayChild = z.infer<typeof ZGatewayChild>;

/** GET `/frontstage/v1/devices/{tangramId}/gateway/devices`: the devices last connected behind this gateway, by name. */
export const ZGatewayChildren = z.object({ tangram_id: z.string(), items: z.array(ZGatewayChild) });
export type TGatewayChildren = z.infer<typeof ZGatewayChildren>;

/** GET/PUT `/frontstage/v1/projects/{id}/gateway`: whether a gateway of the project may create the devices it names. */
export const ZProjectGatewaySettings = z.object({ gateway_creates_devices: z.boolean() });
export type TProjectGatewaySettings = z.infer<typeof ZProjectGatewaySettings>;
