export const API_VERSION = "0.0.0-step9";
export const SERVICE_NAME = "toolbroker";
