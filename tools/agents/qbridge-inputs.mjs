export async function replay() {}
