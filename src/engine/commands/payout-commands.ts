import { writeFile } from 'node:fs/promises';
import type { PayoutsView } from '@shared/bridge/evidence-views';
import { payoutsCsv, payoutsView, type PaidReport } from '../domain/payouts';
import type { SessionContext } from './session-context';

/** Earnings: the payouts of the mirrored reports, and their CSV export. */
export class PayoutCommands {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  #paidReports(): PaidReport[] {
    const { store } = this.#ctx;
    return store.reports
      .listPaid()
      .filter((r): r is typeof r & { payout: NonNullable<PaidReport['payout']> } => !!r.payout)
      .map((r) => ({
        id: r.id,
        title: r.title,
        program_id: r.program_id,
        program_name: r.program_name,
        payout: r.payout,
      }));
  }

  listPayouts(): PayoutsView {
    return payoutsView(this.#paidReports());
  }

  /** Writes the payouts table as CSV where the user chose (main's save dialog). */
  async exportPayouts(destination: string): Promise<{ savedTo: string }> {
    await writeFile(destination, payoutsCsv(this.listPayouts().rows), { mode: 0o600 });
    return { savedTo: destination };
  }
}
