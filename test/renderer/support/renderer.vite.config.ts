import { defineConfig } from 'electron-vite';
import project from '../../../electron.vite.config';

// The project's renderer build alone: the browser tests need neither main nor preload, and must
// not fail while those are being edited. The settings are the shipped ones, unchanged.
const config = project as { renderer?: unknown };
export default defineConfig({ renderer: config.renderer as never });
