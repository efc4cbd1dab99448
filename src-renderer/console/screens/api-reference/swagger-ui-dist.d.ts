// swagger-ui-dist ships no types: the part of its ES bundle this screen uses.
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  interface SwaggerRequest {
    url: string;
    method: string;
    headers: Record<string, string>;
    credentials?: RequestCredentials;
  }
  interface SwaggerOptions {
    domNode: HTMLElement;
    spec: object;
    deepLinking?: boolean;
    validatorUrl?: string | null;
    tryItOutEnabled?: boolean;
    persistAuthorization?: boolean;
    defaultModelsExpandDepth?: number;
    docExpansion?: 'list' | 'full' | 'none';
    requestInterceptor?: (req: SwaggerRequest) => SwaggerRequest;
  }
  const SwaggerUIBundle: (options: SwaggerOptions) => unknown;
  export default SwaggerUIBundle;
}
