/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base address of the API; empty means the same origin as the SPA. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
