import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { followBrowserPrinting } from './stores/printing';
import './styles/base.css';
import './styles/lists.css';
import './styles/editor.css';
import './styles/workspace.css';
import './styles/evidence.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');
followBrowserPrinting();
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
