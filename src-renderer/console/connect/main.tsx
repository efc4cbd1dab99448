// The desktop app's connect page (connect.html): shown by the shell at first start, when the team
// server cannot be trusted or reached, and on "Change server". It talks to the shell only, through
// `window.connect` (src-main/shell/connect-preload.ts), never to a service.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConnectScreen } from './ConnectScreen';
import '../styles/tokens.css';
import '../styles/base.css';
import '../styles/layout.css';
import '../styles/components.css';
import './connect.css';

const root = document.getElementById('root');
if (!root) throw new Error('connect.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <ConnectScreen bridge={window.connect} />
  </StrictMode>,
);
