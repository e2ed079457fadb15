// Components rendered by unit tests (react-dom/server) import their stylesheets; vite handles them, tsc only needs to know they exist.
declare module '*.css';
