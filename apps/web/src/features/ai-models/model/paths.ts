/** The console paths of the AI model pages (routes.tsx declares them), for links and navigation. */

/** A model's page. */
export const aiModelPath = (modelId: number) => `/ai-model/detail/${modelId}`;

/** A rollout's page, under its model's. */
export const rolloutPath = (r: { id: number; model_id: number }) => `${aiModelPath(r.model_id)}/rollouts/${r.id}`;
