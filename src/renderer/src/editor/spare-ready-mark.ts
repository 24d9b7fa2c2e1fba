/**
 * The mark a spare editor leaves on the page's performance timeline once it is ready to take a
 * draft (DevTools' Performance panel shows it): tests and benches wait for it, as nothing else
 * of a spare shows before it is taken.
 */
export const SPARE_EDITOR_READY = 'bounty-desk: spare editor ready';
