/**
 * API paths shared by server routes, the web client and tests (spec §7 prefixes). `:x` marks a path parameter.
 * One place, so the console and the server cannot drift.
 */
export const API = {
  auth: '/authorization/v1',
  frontstage: '/frontstage/v1',
  ts: '/frontstage-ts/v1',
  user: '/frontstage/user/v1',
  ai: '/frontstage-ai/v1',
} as const;

/** Paths of this release's endpoints, relative to the host. */
export const paths = {
  login: `${API.auth}/login`,
  refreshToken: `${API.auth}/refresh-token`,
  logout: `${API.auth}/logout`,
  verifyEmail: `${API.auth}/verify-email`,
  register: `${API.auth}/register/aiot`,
  forgotPwd: `${API.auth}/forgot-pwd`,
  resetPwd: `${API.auth}/reset-pwd`,
  pwd: `${API.auth}/pwd`,
  profile: `${API.auth}/profile`,
  apiKeys: `${API.auth}/security/api-key`,
  apiKeyRevoke: `${API.auth}/security/api-key/revoke`,
  adminAccounts: `${API.auth}/admin/account`,
  adminSwitch: `${API.auth}/admin/account/switch`,
  auditLog: `${API.frontstage}/audit-log`,
  auditLogDownload: `${API.frontstage}/audit-log/download`,

  products: `${API.frontstage}/products`,
  product: (id: number) => `${API.frontstage}/products/${id}`,
  productsSum: `${API.frontstage}/products/sum`,
  productCatalog: `${API.frontstage}/products/catalog`,
  productClasses: `${API.frontstage}/products/classes`,
  productClass: (id: number) => `${API.frontstage}/products/classes/${id}`,
  tangramProducts: `${API.frontstage}/template/tangramProducts`,
  tangramProductSensors: (id: number) => `${API.frontstage}/template/tangramProducts/${id}/sensors`,
  productFunctions: (id: number) => `${API.frontstage}/projects/profile/product/functions/${id}`,
  imageUpload: `${API.frontstage}/image/upload`,

  projects: `${API.frontstage}/projects`,
  project: (id: number) => `${API.frontstage}/projects/${id}`,
  projectsSum: `${API.frontstage}/projects/sum`,
  projectCopy: `${API.frontstage}/projects/copy`,
  projectDevices: (id: number) => `${API.frontstage}/projects/${id}/devices`,
  projectDevicesBulk: (id: number) => `${API.frontstage}/projects/${id}/devices/bulk`,
  projectRuleType: (id: number) => `${API.frontstage}/projects/${id}/ruleType`,

  devices: `${API.frontstage}/devices`,
  devicesSum: `${API.frontstage}/devices/sum`,
  device: (tangramId: string) => `${API.frontstage}/devices/${tangramId}`,
  deviceSecret: (tangramId: string) => `${API.frontstage}/devices/${tangramId}/secret`,
  deviceCredentials: (tangramId: string) => `${API.frontstage}/devices/${tangramId}/credentials`,
  deviceGateway: (tangramId: string) => `${API.frontstage}/devices/${tangramId}/gateway`,
  gatewayDevices: (tangramId: string) => `${API.frontstage}/devices/${tangramId}/gateway/devices`,
  projectGateway: (projectId: number) => `${API.frontstage}/projects/${projectId}/gateway`,
  devicesV2: `${API.frontstage}/v2/devices`,
  deviceV2: (tangramId: string) => `${API.frontstage}/v2/devices/${tangramId}`,

  tsMetadata: `${API.ts}/telemetries/metadata`,
  tsLatest: `${API.ts}/latest`,
  tsLatestN: `${API.ts}/latestN`,
  tsDeviceTwins: `${API.ts}/deviceTwins`,
  tsTypes: `${API.ts}/types`,
  tsTimeseries: `${API.ts}/timeseries`,
  tsTimeseriesV2: `${API.ts}/v2/timeseries`,
  tsDownload: `${API.ts}/download`,
  tsRawValues: `${API.ts}/telemetries/value/timeseries`,
  tsStatisticsSummary: `${API.ts}/statistics/summary`,
  tsActivationRate: `${API.ts}/statistics/activation-rate`,
} as const;
