// How a receiver checks a delivery. Shown on the screen and with a new endpoint's secret.
export function SigningHelp({ compact = false }: { compact?: boolean }) {
  return (
    <dl className={`wh-help${compact ? ' wh-help-compact' : ''}`} data-testid="webhook-signing-help">
      <div>
        <dt><code>X-Service-Signature</code></dt>
        <dd>
          <code>sha256=</code> followed by the hex HMAC-SHA256 of the raw request body, keyed with the signing secret. Compute it over
          the exact bytes received, before parsing, and compare in constant time.
        </dd>
      </div>
      <div>
        <dt><code>X-Service-Timestamp</code></dt>
        <dd>
          When the event happened, in Unix seconds; it equals the signed body&rsquo;s <code>timestamp</code>. Refuse events older than
          5 minutes.
        </dd>
      </div>
      <div>
        <dt><code>X-Service-Delivery</code></dt>
        <dd>The delivery id. Deliveries are at least once: use it to ignore a delivery you have already handled.</dd>
      </div>
      {compact ? null : (
        <div>
          <dt>Answer</dt>
          <dd>
            Any 2xx within 10 seconds counts as delivered. Anything else is retried with growing delays, up to 10 attempts. Redirects are
            not followed.
          </dd>
        </div>
      )}
    </dl>
  );
}
