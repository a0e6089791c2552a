-- CreateTable
CREATE TABLE "instance_setting" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "instance_setting_pkey" PRIMARY KEY ("name")
);
