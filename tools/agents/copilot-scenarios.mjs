export const requests = async () => ({});
export const noDecision = requests,
  escWhileHookWaits = requests,
  execMode = requests,
  qbridgeInstalled = requests;
