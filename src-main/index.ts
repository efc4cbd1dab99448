// Electron entry (out/main/index.js). Everything lives in shell/ so the service bundle and this
// one share nothing but the build.
import { startApp } from './shell/app';

startApp();
