/** The response shapes of the AI model registry (ZAiModel, ZAiModelRevision); never a database row. */
import type { TAiModel, TAiModelRevision } from '@tessera/contracts';
import type { aiModelRevisions, aiModels } from '../../db/schema.js';

/** A model row with its module's name and model number and its revisions' count and newest number. */
export interface TModelView {
  model: typeof aiModels.$inferSelect;
  moduleName: string;
  moduleModelNumber: string;
  revisionCount: number;
  latestRevision: number | null;
}

/** A revision row with its uploader's email (null once the account is gone) and whether it is deployed. */
export interface TRevisionView {
  revision: typeof aiModelRevisions.$inferSelect;
  uploaderEmail: string | null;
  deployed: boolean;
}

/** Presents a model. */
export function presentModel(view: TModelView): TAiModel {
  const { model } = view;
  return {
    id: model.id,
    name: model.name,
    description: model.description,
    framework: model.framework,
    tangram_product_id: model.tangramProductId,
    module_name: view.moduleName,
    module_model_number: view.moduleModelNumber,
    input_description: model.inputDescription,
    output_description: model.outputDescription,
    revision_count: view.revisionCount,
    latest_revision: view.latestRevision,
    created_at: model.createdAt,
    updated_at: model.updatedAt,
  };
}

/** Presents a revision. */
export function presentRevision(view: TRevisionView): TAiModelRevision {
  const { revision } = view;
  return {
    id: revision.id,
    model_id: revision.modelId,
    revision: revision.revision,
    file_name: revision.fileName,
    size_bytes: revision.sizeBytes,
    sha256: revision.sha256,
    notes: revision.notes,
    uploaded_by:
      revision.uploadedBy !== null && view.uploaderEmail !== null ? { account_id: revision.uploadedBy, email: view.uploaderEmail } : null,
    created_at: revision.createdAt,
    deployed: view.deployed,
  };
}
