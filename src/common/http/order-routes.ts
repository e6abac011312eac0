/** Endpoints 3 and 4: their failures are answered `{success: false, error, error_code, message}`. */
export const ORDER_ROUTES = ['/gatewayone/create-order', '/gatewaytwo/create-order'];
