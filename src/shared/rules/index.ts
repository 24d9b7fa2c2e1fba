export * from './cvss';
export * from './description';
export * from './file-links';
