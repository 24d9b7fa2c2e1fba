import type { Me } from '@shared/api';
import { USER, type SessionContext } from './session-context';

/** The account's own state on the server: Me, the payments status, e-mail verification. */
export class AccountCommands {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  async refreshPayments(): Promise<void> {
    const payments = await this.#ctx.api.getPaymentsStatus(USER);
    this.#ctx.store.account.setPayments(payments);
  }

  async refreshMe(): Promise<Me> {
    const me = await this.#ctx.api.getMe(USER);
    this.#ctx.store.account.setMe(me);
    return me;
  }

  async sendVerificationEmail(): Promise<{ alreadyVerified: boolean }> {
    const result = await this.#ctx.api.sendVerificationEmail(USER);
    return { alreadyVerified: result.already_verified === true };
  }
}
