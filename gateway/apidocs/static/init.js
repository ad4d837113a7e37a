// Starts Swagger UI on the gateway's OpenAPI document. A module of its own
// rather than an inline script, so the page's Content-Security-Policy can
// forbid inline scripts; nothing is fetched from other hosts (no
// validator badge).
const spec = new URL("../openapi.json", location.href);

window.ui = window.SwaggerUIBundle({
  url: spec.href,
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  layout: "BaseLayout",
  presets: [window.SwaggerUIBundle.presets.apis],
});
