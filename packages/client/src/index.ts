// The agent SDK arrives with its own issue; the package exists so the workspace layout is final.
export const CLIENT_PACKAGE = "@toolbroker/client";
