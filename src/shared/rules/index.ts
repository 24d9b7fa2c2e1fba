export * from './cvss';
export * from './description';
export * from './file-links';
export * from './file-link-insertion';
export * from './file-link-removal';
export * from './size';
