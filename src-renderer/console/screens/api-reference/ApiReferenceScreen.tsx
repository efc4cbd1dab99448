// API reference: the service's OpenAPI document (GET /api/openapi.json, generated from the same
// zod contracts the service enforces), rendered by Swagger UI. "Try it out" calls this service
// with one of the organisation's test keys, pasted here and kept only in this screen's memory:
// a live key, or any key that is not one of this organisation's test keys, is refused, so trying
// the API never charges credits or touches live results.
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';
import { ScreenHeader } from '../../components/ScreenHeader';

/** Keys are listed by their first characters (ApiKey.prefix); a pasted key must start with one. */
function isTestKey(key: string, testPrefixes: readonly string[]): boolean {
  return key.length > 10 && testPrefixes.some((p) => key.startsWith(p));
}

export function ApiReferenceScreen() {
  const box = useRef<HTMLDivElement>(null);
  const testKeys = useResource((signal) => api.listKeys('test', signal), ['test']);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState<string | null>(null);
  // Read by Swagger UI's request hook, which lives outside React.
  const keyRef = useRef<string | null>(null);
  const [keySet, setKeySet] = useState(false);

  useEffect(() => {
    const node = box.current;
    if (!node) return;
    let cancelled = false;
    // The document is public; asking first gives a clear message when the service has none.
    api.openapi()
      .then(async (doc) => {
        if (cancelled) return;
        if (!doc) {
          setFailed('This service does not publish an API document.');
          return;
        }
        const { mountSwagger } = await import('./swagger');
        if (cancelled) return;
        mountSwagger(node, {
          spec: doc,
          authorize: (headers) => {
            // Only the verified test key goes out, whatever was typed into Swagger UI itself.
            delete headers['X-API-Key'];
            delete headers['Authorization'];
            if (keyRef.current) headers['X-API-Key'] = keyRef.current;
          },
        });
      })
      .catch(() => {
        if (!cancelled) setFailed('Cannot reach the Compliance Console service. Is it running?');
      });
    return () => {
      cancelled = true;
      node.replaceChildren();
    };
  }, []);

  const acceptKey = () => {
    const key = draft.trim();
    const prefixes = (testKeys.data?.keys ?? []).filter((k) => !k.revoked_at).map((k) => k.prefix);
    if (!isTestKey(key, prefixes)) {
      setError('Use one of this organization’s test keys (API keys, Test). Live keys are never sent from this page.');
      return;
    }
    keyRef.current = key;
    setKeySet(true);
    setError(undefined);
    setDraft('');
  };

  return (
    <div className="api-ref">
      <ScreenHeader
        title="API reference"
        summary="Every endpoint of this service with its authentication, request and response schemas, generated from the contracts the service enforces."
      />
      <section className="panel" aria-labelledby="api-ref-key-heading">
        <div className="panel-header">
          <h2 id="api-ref-key-heading">Try it with a test key</h2>
        </div>
        <div className="settings-body">
          {keySet ? (
            <p data-testid="api-ref-key-set">
              A test key is set for “Try it out”. It is kept only while this screen is open.{' '}
              <button type="button" className="btn btn-link" onClick={() => { keyRef.current = null; setKeySet(false); }}>
                Forget it
              </button>
            </p>
          ) : (
            <form
              className="api-ref-key"
              onSubmit={(e) => {
                e.preventDefault();
                acceptKey();
              }}
            >
              <Field
                label="Test API key"
                type="password"
                autoComplete="off"
                value={draft}
                onChange={(e) => setDraft(e.currentTarget.value)}
                error={error}
                hint="Requests made from this page are test requests: free, and never mixed with live results."
                testId="api-ref-key"
              />
              <button type="submit" className="btn btn-primary" data-testid="api-ref-key-use">Use this key</button>
            </form>
          )}
        </div>
      </section>
      {failed ? <Alert title="No API document." testId="api-ref-unavailable">{failed}</Alert> : null}
      <div ref={box} data-testid="api-ref-doc" />
    </div>
  );
}
