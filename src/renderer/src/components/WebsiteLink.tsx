import type { WebsitePage } from '@shared/bridge/contract';
import { bridge } from '../bridge';
import { reportError } from '../stores/notices';

/** A link to a website page; main opens it in the user's browser. */
export function WebsiteLink({ page, children }: { page: WebsitePage; children: string }) {
  return (
    <a
      href="#"
      className="website-link"
      onClick={(e) => {
        e.preventDefault();
        bridge.openWebsite(page).catch(reportError);
      }}
    >
      {children}
    </a>
  );
}
