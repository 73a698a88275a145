// React's DOM renderer as a step of the app's start (app/takeover.tsx): the largest module the app has,
// evaluated in a task of its own. A module of ours rather than `import('react-dom/client')`: the package is
// CommonJS, and only an ES module's import gives its named exports.
export { hydrateRoot } from 'react-dom/client';
