/**
 * `_site.yaml`'s versions for a site with an older version beside it: the current one (v2) at the site's
 * base, and v1 from the folder `../v1` at `/v1/`, its problems warnings as an imported old tree's are.
 */
export const CURRENT_AND_V1 = `versions:
  - text: v2
    badge: New
    current: true
  - text: v1
    content: ../v1
    route: /v1/
    strict: false
`;
