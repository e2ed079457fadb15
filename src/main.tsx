import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './app/app.css';
import { applyThemePreference, readThemePreference } from './ui/theme/theme-preference.ts';

// The saved theme before the first render, so a pinned dark page never flashes light.
applyThemePreference(readThemePreference());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
