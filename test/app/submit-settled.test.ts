import { describe, expect, it } from 'vitest';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { fakeJwt } from '../support/fake-secrets';
import { useAppPerTest } from '../renderer/support/app';

/**
 * The harness's `submitSettled`, which many tests build on: a submission the app holds back (a
 * credential in the text waits for the researcher's choice) is not taken as sent. The fourth walk
 * seeded a "submitted" report this way that stayed a draft, and nothing said so.
 */
describe('the harness: a submission held back is not taken as sent', () => {
  const apps = useAppPerTest('submit-settled');

  it('throws, naming the report and its unsent outbox, and submits a clean draft', async () => {
    const { host } = await apps.open();
    const held = await host.writeDraft(host.programs.open.id, {
      title: 'Session token in the export request',
      asset: 'https://api.example.com/',
      description: `${COMPLETE_DESCRIPTION}\n\`\`\`http\nGET /api/v2/users/1337/export HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer ${fakeJwt()}\n\`\`\`\n`,
      cvss_vector: '',
    });
    await expect(host.submitSettled(held)).rejects.toThrow(
      new RegExp(`report ${held} was not submitted \\(status draft; outbox: .+\\)`),
    );
    const clean = await host.writeDraft(host.programs.open.id, {
      title: 'Open redirect on *.example.com after login',
      asset: 'https://app.example.com/login',
      description: COMPLETE_DESCRIPTION,
      cvss_vector: '',
    });
    await host.submitSettled(clean);
    expect((await host.engine.getReport(clean))?.report?.status).not.toBe('draft');
  }, 120_000);
});
