export * from './checklist';
export * from './merge';
export * from './validate';
