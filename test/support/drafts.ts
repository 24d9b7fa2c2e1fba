import type { DraftContent } from '../../src/shared/bridge/views';
import { COMPLETE_DESCRIPTION } from './fixtures';

/** A draft's content with the template's complete description and no CVSS vector. */
export function completeDraft(title: string, asset = 'https://app.example.com/'): DraftContent {
  return { title, asset, description: COMPLETE_DESCRIPTION, cvss_vector: '' };
}

/** An engine (in this process, or the app's through its IPC) and the sandbox's programs. */
interface DraftMaker {
  engine: {
    createDraft(programId: string): Promise<{ reportId: string }>;
    saveDraft(reportId: string, content: DraftContent): Promise<unknown>;
  };
  programs: { open: { id: string } };
}

/**
 * A draft of the open program (or of `programId`), saved through the engine with a complete
 * description, an asset and no CVSS vector unless `content` says otherwise: where most report
 * tests start.
 */
export async function savedDraft(
  x: DraftMaker,
  content: Partial<DraftContent> & { title: string },
  programId = x.programs.open.id,
): Promise<{ reportId: string }> {
  const draft = await x.engine.createDraft(programId);
  await x.engine.saveDraft(draft.reportId, { ...completeDraft(content.title), ...content });
  return draft;
}
