/** The one sentence for an account's data written by a newer app (engine errors and the UI). */
export function newerDataSentence(found: number, supported: number): string {
  return `This data was written by a newer Bounty Desk (data version ${found}; this version reads up to ${supported}): update the app, or start with a fresh copy.`;
}
