export * from './cvss';
export * from './description';
export * from './file-links';
export * from './size';
