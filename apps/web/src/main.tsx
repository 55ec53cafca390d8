/** Entry of the console: the language's strings first (i18n/index.ts), then the app, so the first paint is translated. */
import { i18nReady } from './i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './app/App';
import './app/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
